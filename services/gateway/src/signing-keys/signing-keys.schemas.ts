import { createdSigningKeySchema, signingKeySchema } from '@platform/api-shapes';
import { dataOf, listOf } from '../wire/wire';
import { pagingQuery } from '../validation/paging';

export const signingKeyListQuery = pagingQuery();

export const signingKeyResponse = dataOf(signingKeySchema);
export const createdSigningKeyResponse = dataOf(createdSigningKeySchema);
export const signingKeyListResponse = listOf(signingKeySchema);
