curl -s 'http://127.0.0.1:8080/v1/generation/prompt?model=gpt-4o-mini' \
  -H 'x-api-key: sk-demo-starter' \
  -H 'content-type: application/json' \
  -d '{"prompt":"Write a haiku about the sea."}'
