# sea.png is the picture; mask.png is white where the boat goes. The body is written to a file because
# base64 images are too long for a command-line argument.
printf '{"prompt":"Add a red sailing boat on the water","size":"512x512","image":"%s","mask":"%s"}' \
  "$(base64 < sea.png | tr -d '\n')" "$(base64 < mask.png | tr -d '\n')" > edit.json
curl -s http://127.0.0.1:8080/v1/generation/image/edit \
  -H 'x-api-key: sk-demo-starter' \
  -H 'content-type: application/json' \
  -d @edit.json
