/** The public contract (`generated/openapi.json`), loaded once: what every implementation of the gateway offers. */
import { packageFile } from '../package-root.ts';
import { Contract } from './contract.ts';
import { gatewayDocument } from './gateway-document.ts';

export const contract = new Contract('gateway', packageFile('generated/openapi.json'), gatewayDocument);
