/**
 * The reason phrase of every HTTP error status (RFC 9110 and the registered extensions), used
 * as the problem `title` (RFC 9457 asks for the status's phrase when `type` is `about:blank`).
 */
export const HTTP_STATUS_TITLES = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  510: 'Not Extended',
  511: 'Network Authentication Required',
} as const satisfies Record<number, string>;

/** Whether `status` is an integer in 400-599: a status an error may answer with. */
export function isErrorStatus(status: unknown): status is number {
  return typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599;
}

/** The problem `title` of an error status: its reason phrase, else the phrase of its class. */
export function titleForStatus(status: number): string {
  const title = (HTTP_STATUS_TITLES as Record<number, string>)[status];
  if (title !== undefined) return title;
  return status >= 500 ? 'Internal Server Error' : 'Bad Request';
}
