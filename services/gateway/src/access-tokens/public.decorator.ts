import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'gateway:public';

/** A route answered without credentials (health, OpenAPI document). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
