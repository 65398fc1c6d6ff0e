import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController, OpenAPIObject } from '@nestjs/swagger';
import { Public } from '../access-tokens/public.decorator';
import { OpenApiDocument } from './openapi.document';

@ApiExcludeController()
@Controller()
export class OpenApiController {
  constructor(private readonly document: OpenApiDocument) {}

  @Public()
  @Get('openapi.json')
  get(): OpenAPIObject {
    return this.document.get();
  }
}
