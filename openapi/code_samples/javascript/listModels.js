import { createGatewayClient } from 'ai-gateway-contract/client';

const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:8080' }); // public: no key needed
const { data, error } = await client.GET('/v1/models');
if (error) throw new Error(error.error);
for (const model of data.models) console.log(model.id, model.tier, model.multiplier, model.endpoints);
