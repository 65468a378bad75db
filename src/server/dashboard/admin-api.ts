/**
 * The reference implementation's admin API (`generated/admin/openapi.json`, from `openapi/admin/`): the
 * dashboard's operations, served by the same pipeline as the public contract but described apart from it,
 * since another gateway may issue its keys any other way.
 */
import { Contract } from '../../contract/index.ts';
import { packageFile } from '../../package-root.ts';

export const adminApi = new Contract('admin', packageFile('generated/admin/openapi.json'));
