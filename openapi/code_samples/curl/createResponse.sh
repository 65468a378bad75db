curl -s http://127.0.0.1:8080/v1/responses \
  -H 'x-api-key: sk-demo-starter' \
  -H 'content-type: application/json' \
  -d '{"model":"gpt-4o-mini","input":"Hello!"}'
