curl -s http://127.0.0.1:8080/v1/messages/count_tokens \
  -H 'x-api-key: sk-demo-economy' \
  -H 'anthropic-version: 2023-06-01' \
  -H 'content-type: application/json' \
  -d '{"model":"claude-haiku-4-5","messages":[{"role":"user","content":"Hello!"}]}'
