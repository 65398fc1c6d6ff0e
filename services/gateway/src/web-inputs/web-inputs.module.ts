import { Module } from '@nestjs/common';
import { webInputs } from '@platform/proto';
import { serviceClientProvider } from '../grpc-clients/service-client';
import { WEB_INPUTS_CLIENT, WebInputsController } from './web-inputs.controller';

@Module({
  controllers: [WebInputsController],
  providers: [serviceClientProvider(WEB_INPUTS_CLIENT, 'web-inputs', webInputs.WEB_INPUTS_SERVICE_NAME)],
})
export class WebInputsModule {}
