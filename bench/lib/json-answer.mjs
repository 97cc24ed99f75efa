// JSON in and out for the hand-written contenders (the baseline and the mingo floor).

/** The cheapest JSON answer: no ETag hashing or content negotiation (the store skips them too). */
export function sendJson(res, status, data, headers = {}) {
  const body = JSON.stringify(data);
  res.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8' });
  res.end(body);
}

/** The request body parsed as JSON (the store reads bodies itself too, without body-parser). */
export async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
