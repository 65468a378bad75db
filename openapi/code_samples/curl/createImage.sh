curl -s 'http://127.0.0.1:8080/v1/generation/image?model=image-gen' \
  -H 'x-api-key: sk-demo-starter' \
  -H 'content-type: application/json' \
  -d '{"prompt":"A lighthouse on a cliff at dawn","size":"512x512","n":1}'
