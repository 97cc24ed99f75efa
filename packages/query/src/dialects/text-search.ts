/**
 * json-server's `q` as a filter both engines run: a document matches when one of its top-level
 * string fields contains the text, case-insensitive. Written as an aggregation expression
 * (`$expr` over `$objectToArray` of the document), which MongoDB and the embedded engine both
 * evaluate, so it works on resources that declare no fields; no script (`$where`) is involved.
 * The text is escaped, so it matches literally and cannot backtrack; every document the filter
 * examines counts against the request's budgets like any other scan.
 */
import { escapeRegex } from '../regex';
import type { Filter } from '../types';

/**
 * The filter of `q=<text>`: some top-level field other than `exclude` (the resource's hidden
 * fields, which a search must not reveal) holds a string containing `text`.
 */
export function textSearchFilter(text: string, exclude: readonly string[] = []): Filter {
  const fields =
    exclude.length === 0
      ? { $objectToArray: '$$ROOT' }
      : {
          $filter: {
            input: { $objectToArray: '$$ROOT' },
            as: 'field',
            cond: { $not: [{ $in: ['$$field.k', [...exclude]] }] },
          },
        };
  const contains = {
    $cond: [
      { $eq: [{ $type: '$$field.v' }, 'string'] },
      { $regexMatch: { input: '$$field.v', regex: escapeRegex(text), options: 'i' } },
      false,
    ],
  };
  return { $expr: { $anyElementTrue: [{ $map: { input: fields, as: 'field', in: contains } }] } };
}
