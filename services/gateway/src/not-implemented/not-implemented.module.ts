import { Module } from '@nestjs/common';
import { NotImplementedController } from './not-implemented.controller';

@Module({ controllers: [NotImplementedController] })
export class NotImplementedModule {}
