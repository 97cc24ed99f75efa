// `express4` is the npm alias `express@4`; its API, as used here, matches Express 5's types.
declare module 'express4' {
  import express from 'express';
  export default express;
}
