import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { toWebInput } from '@platform/api-shapes';
import { webInputs } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { emptyDataResponse } from '../live-streams/live-streams.schemas';
import { Paging } from '../validation/paging';
import { ZodBody, ZodQuery, ZodResponse } from '../validation/zod-decorators';
import {
  CreateWebInputBody,
  createWebInputBody,
  UpdateWebInputUrlBody,
  updateWebInputUrlBody,
  webInputListQuery,
  webInputListResponse,
  webInputResponse,
} from './web-inputs.schemas';

export const WEB_INPUTS_CLIENT = Symbol('WebInputsServiceClient');

/** Spec 4.9 (beta): a browser that loads a page and streams it into a live stream. */
@ApiTags('Web inputs')
@Controller('video/v1/web-inputs')
export class WebInputsController {
  constructor(@Inject(WEB_INPUTS_CLIENT) private readonly webInputs: webInputs.WebInputsServiceClient) {}

  @Post()
  @ApiOperation({ summary: 'Create a web input (launched at once with auto_launch)' })
  @ZodResponse(201, 'The new web input', webInputResponse)
  async create(@ZodBody(createWebInputBody) body: CreateWebInputBody) {
    const { url, live_stream_id, auto_launch, passthrough, resolution, timeout } = body;
    const created = await firstValueFrom(this.webInputs.createWebInput({ url, live_stream_id, auto_launch, passthrough, resolution, timeout }));
    return { data: toWebInput(created) };
  }

  @Get()
  @ApiOperation({ summary: 'List web inputs' })
  @ZodResponse(200, 'A page of web inputs', webInputListResponse)
  async list(@ZodQuery(webInputListQuery) query: Paging) {
    return { data: (await firstValueFrom(this.webInputs.listWebInputs(query))).items.map(toWebInput) };
  }

  @Get(':WEB_INPUT_ID')
  @ApiOperation({ summary: 'Retrieve a web input' })
  @ZodResponse(200, 'The web input', webInputResponse)
  async get(@Param('WEB_INPUT_ID') id: string) {
    return { data: toWebInput(await firstValueFrom(this.webInputs.getWebInput({ id }))) };
  }

  @Delete(':WEB_INPUT_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a web input (its browser and stream are stopped first)' })
  @ZodResponse(204, 'Deleted')
  async delete(@Param('WEB_INPUT_ID') id: string): Promise<void> {
    await firstValueFrom(this.webInputs.deleteWebInput({ id }));
  }

  @Put(':WEB_INPUT_ID/launch')
  @ApiOperation({ summary: 'Launch the browser, load the url and stream it to the live stream' })
  @ZodResponse(200, 'Launching', emptyDataResponse)
  async launch(@Param('WEB_INPUT_ID') id: string) {
    await firstValueFrom(this.webInputs.launchWebInput({ id }));
    return { data: {} };
  }

  @Put(':WEB_INPUT_ID/shutdown')
  @ApiOperation({ summary: 'End streaming, then shut the browser down' })
  @ZodResponse(200, 'Shut down', emptyDataResponse)
  async shutdown(@Param('WEB_INPUT_ID') id: string) {
    await firstValueFrom(this.webInputs.shutdownWebInput({ id }));
    return { data: {} };
  }

  @Put(':WEB_INPUT_ID/reload')
  @ApiOperation({ summary: 'Reload the page; while streaming, viewers see the reload' })
  @ZodResponse(200, 'Reloading', emptyDataResponse)
  async reload(@Param('WEB_INPUT_ID') id: string) {
    await firstValueFrom(this.webInputs.reloadWebInput({ id }));
    return { data: {} };
  }

  @Put(':WEB_INPUT_ID/url')
  @ApiOperation({ summary: 'Change the url (only while idle)' })
  @ZodResponse(200, 'The updated web input', webInputResponse)
  async updateUrl(@Param('WEB_INPUT_ID') id: string, @ZodBody(updateWebInputUrlBody) body: UpdateWebInputUrlBody) {
    return { data: toWebInput(await firstValueFrom(this.webInputs.updateWebInputUrl({ id, url: body.url }))) };
  }
}
