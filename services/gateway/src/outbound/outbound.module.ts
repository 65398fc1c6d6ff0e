import { Module } from '@nestjs/common';
import { OutboundUrls } from './outbound-urls';

/** Create-time checks of the URLs users give the platform to fetch. */
@Module({ providers: [OutboundUrls], exports: [OutboundUrls] })
export class OutboundModule {}
