import { Controller, Delete, Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { playbackAuth } from '@platform/proto';
import { firstValueFrom } from 'rxjs';
import { Paging } from '../validation/paging';
import { ZodQuery, ZodResponse } from '../validation/zod-decorators';
import { toCreatedSigningKey, toSigningKey } from '@platform/api-shapes';
import { createdSigningKeyResponse, signingKeyListQuery, signingKeyListResponse, signingKeyResponse } from './signing-keys.schemas';

export const SIGNING_KEYS_CLIENT = Symbol('SigningKeysServiceClient');

/** Spec 4.1; the `/video/v1` paths are the deprecated duplicates (system permission too). */
@ApiTags('Signing keys')
@Controller(['system/v1/signing-keys', 'video/v1/signing-keys'])
export class SigningKeysController {
  constructor(@Inject(SIGNING_KEYS_CLIENT) private readonly keys: playbackAuth.SigningKeysServiceClient) {}

  @Post()
  @ApiOperation({ summary: 'Create a signing key (the private key is shown only in this reply)' })
  @ZodResponse(201, 'The new key with its private half', createdSigningKeyResponse)
  async create() {
    return { data: toCreatedSigningKey(await firstValueFrom(this.keys.createSigningKey({}))) };
  }

  @Get()
  @ApiOperation({ summary: 'List signing keys' })
  @ZodResponse(200, 'A page of keys', signingKeyListResponse)
  async list(@ZodQuery(signingKeyListQuery) query: Paging) {
    return { data: (await firstValueFrom(this.keys.listSigningKeys(query))).items.map(toSigningKey) };
  }

  @Get(':SIGNING_KEY_ID')
  @ApiOperation({ summary: 'Retrieve a signing key (without its private key)' })
  @ZodResponse(200, 'The key', signingKeyResponse)
  async get(@Param('SIGNING_KEY_ID') id: string) {
    return { data: toSigningKey(await firstValueFrom(this.keys.getSigningKey({ id }))) };
  }

  @Delete(':SIGNING_KEY_ID')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a signing key for good' })
  @ZodResponse(204, 'Deleted')
  async delete(@Param('SIGNING_KEY_ID') id: string): Promise<void> {
    await firstValueFrom(this.keys.deleteSigningKey({ id }));
  }
}
