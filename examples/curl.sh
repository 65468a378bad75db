#!/bin/sh
# Every operation with curl: the model listing, a chat answer (plain and streamed), a prompt completion,
# an image, and an image variation. Uses 2 images of the key's daily quota: the default key is pro's (25 a
# day), so that the README's walk-through can be followed several times a day (starter's 3 would not last).
#
#   GATEWAY_URL=http://127.0.0.1:8080 GATEWAY_KEY=sk-demo-pro sh examples/curl.sh
set -eu
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"
GATEWAY_KEY="${GATEWAY_KEY:-sk-demo-pro}"

echo '# GET /v1/models (public: no key needed)'
curl -sS --fail-with-body "$GATEWAY_URL/v1/models"
echo

echo '# POST /v1/chat/completions'
curl -sS --fail-with-body "$GATEWAY_URL/v1/chat/completions" \
  -H "x-api-key: $GATEWAY_KEY" -H 'content-type: application/json' \
  -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello!"}]}'
echo

echo '# POST /v1/chat/completions, streamed (server-sent events, the same key as a Bearer token)'
curl -sS -N --fail-with-body "$GATEWAY_URL/v1/chat/completions" \
  -H "authorization: Bearer $GATEWAY_KEY" -H 'content-type: application/json' \
  -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello!"}],"stream":true}'

echo '# POST /v1/generation/prompt'
curl -sS --fail-with-body "$GATEWAY_URL/v1/generation/prompt?model=gpt-4o-mini" \
  -H "x-api-key: $GATEWAY_KEY" -H 'content-type: application/json' \
  -d '{"prompt":"Write a haiku about the sea."}'
echo

echo '# POST /v1/generation/image (the answer holds base64 PNGs; only its start is shown)'
# The answer is kept before it is cut: in a pipe, a refused request (a 429 once the day's images are used)
# would end with cut's status, and the script would carry on as if it had worked.
answer=$(curl -sS --fail-with-body "$GATEWAY_URL/v1/generation/image?model=image-gen" \
  -H "x-api-key: $GATEWAY_KEY" -H 'content-type: application/json' \
  -d '{"prompt":"A lighthouse on a cliff at dawn","size":"256x256","n":1}') || { echo "$answer"; exit 1; }
printf '%s\n' "$answer" | cut -c1-120

echo '# POST /v1/generation/image/edit (no mask: a variation of a 1x1 PNG, scaled to 512x512)'
answer=$(curl -sS --fail-with-body "$GATEWAY_URL/v1/generation/image/edit" \
  -H "x-api-key: $GATEWAY_KEY" -H 'content-type: application/json' \
  -d '{"prompt":"A watercolour version","image":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC","size":"512x512"}') || { echo "$answer"; exit 1; }
printf '%s\n' "$answer" | cut -c1-120
