// The data and the heavy requests of bench/hold.mjs (does one heavy request hold the other
// clients?), made by seeded PRNGs so every run and every tree sees the same documents:
// - `posts`: small rows `{ _id, title, body, n, half, tags }`, `half` alternating 0 and 1 so a
//   filter `half=0` matches exactly half of them (the bulk PATCH);
// - `drafts`: the same shape with another seed, whose `half=0` half the bulk DELETE removes
//   (the server puts them back between two deletes);
// - `albums` and their `photos`, each photo `{ _id, album_id, name, data }` with `data` a
//   base64-like string of `photoBytes` characters: ONE string made once and shared by every
//   generated photo, so generating 10,000 of them costs nothing (the engine stores its own
//   copy of each: that copy is the data set's real size).
import { hexId, mulberry32 } from './data.mjs';

const WORDS = [
  'river',
  'cobalt',
  'lantern',
  'meadow',
  'harbor',
  'pepper',
  'granite',
  'willow',
  'orbit',
  'saffron',
  'thistle',
  'ember',
  'falcon',
  'juniper',
  'quarry',
  'velvet',
];
const TAGS = ['news', 'howto', 'review', 'opinion', 'release', 'event'];

const int = (rand, n) => Math.floor(rand() * n);
const words = (rand, count) => Array.from({ length: count }, () => WORDS[int(rand, WORDS.length)]).join(' ');

/** `count` small rows; the `i`-th has `half: i % 2`. */
export function posts(count, seed = 11) {
  const rand = mulberry32(seed);
  return Array.from({ length: count }, (_, i) => ({
    _id: hexId(rand),
    title: `post ${i} ${words(rand, 3)}`,
    body: words(rand, 12),
    n: int(rand, 1000),
    half: i % 2,
    tags: [TAGS[int(rand, TAGS.length)]],
  }));
}

/** The `drafts` collection: rows shaped as `posts`, another seed. */
export const drafts = (count) => posts(count, 12);

/** The ids of `posts(count)`, which the other client asks for at random. */
export const postIds = (count) => posts(count).map((post) => post._id);

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A base64-like string of `bytes` characters (one-byte characters: its length is its size). */
function payload(bytes, seed = 13) {
  const rand = mulberry32(seed);
  let text = '';
  for (let i = 0; i < bytes; i++) text += BASE64[int(rand, 64)];
  // Flattened once: every photo shares this one string.
  return Buffer.from(text, 'latin1').toString('latin1');
}

/** `count` albums `{ _id, title }`. */
export function albums(count, seed = 14) {
  const rand = mulberry32(seed);
  return Array.from({ length: count }, (_, i) => ({ _id: hexId(rand), title: `album ${i}` }));
}

/**
 * The photos of `albumList`, `perAlbum` each (photo `i` in album `i % albums`), handed to
 * `insert` in batches of `batch` so no more than a batch of documents exists at once here.
 */
export async function insertPhotos(albumList, { perAlbum, photoBytes, batch = 500 }, insert) {
  const rand = mulberry32(15);
  const data = payload(photoBytes);
  const total = albumList.length * perAlbum;
  for (let start = 0; start < total; start += batch) {
    const docs = [];
    for (let i = start; i < Math.min(total, start + batch); i++) {
      docs.push({
        _id: hexId(rand),
        album_id: albumList[i % albumList.length]._id,
        name: `photo ${i}`,
        data,
      });
    }
    await insert(docs);
  }
  return total;
}

/** Words no post holds: filters over them match nothing, so every document is examined. */
const ABSENT = (k) => `zq${k}x`;

/**
 * The heavy requests, each `{ id, label, request(repeat) }` (`request` gives `{ method, path,
 * body }`; `collections`, what the server loads besides `posts`; `reseed`, the collection it
 * restores between two repeats), over the sizes of `scale`. Anonymous requests.
 */
export function heavyRequests({ posts: count, albums: albumCount, perAlbum, photoBytes }) {
  const many = count.toLocaleString('en-US');
  const half = Math.ceil(count / 2).toLocaleString('en-US');
  const regexes = Array.from({ length: 20 }, (_, k) => ({
    [k % 2 === 0 ? 'title' : 'body']: { $regex: ABSENT(k), $options: 'i' },
  }));
  const groups = Array.from(
    { length: 20 },
    (_, k) => `$or[${k}][title:contains]=${WORDS[k % WORDS.length]}&$or[${k}][body:contains]=${ABSENT(k)}`,
  ).join('&');
  const kb = Math.round(photoBytes / 1024);
  return [
    {
      id: 'regex-or',
      label: `\`$query\` with \`$or\` of 20 \`$regex\` over ${many} posts`,
      request: () => ({
        method: 'GET',
        path: `/posts?$query=${encodeURIComponent(JSON.stringify({ $or: regexes }))}`,
      }),
    },
    {
      id: 'or-contains-total',
      label: `20 \`$or\` groups x 2 \`contains\` + \`$total=1\` over ${many} posts`,
      request: () => ({ method: 'GET', path: `/posts?${groups}&$total=1` }),
    },
    {
      id: 'populate',
      label: `\`$populate\` of ${perAlbum} x ${kb} kB photos on ${albumCount.toLocaleString('en-US')} albums`,
      request: () => ({ method: 'GET', path: `/albums?$populate=photos&$limit=${albumCount}` }),
      collections: ['photos'],
    },
    {
      id: 'bulk-patch',
      label: `bulk \`PATCH /posts?half=0\` over ${half} documents`,
      // A new value each time, so every repeat modifies every matched document.
      request: (repeat) => ({ method: 'PATCH', path: '/posts?half=0', body: { mark: repeat + 1 } }),
    },
    {
      id: 'bulk-delete',
      label: `bulk \`DELETE /drafts?half=0\` over ${half} documents`,
      request: () => ({ method: 'DELETE', path: '/drafts?half=0' }),
      collections: ['drafts'],
      reseed: 'drafts',
    },
  ];
}
