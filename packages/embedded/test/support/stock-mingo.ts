import type { Document } from '@store/common';
import { Context } from 'mingo';
import * as expressionOperators from 'mingo/operators/expression';
import * as queryOperators from 'mingo/operators/query';
import { Query } from 'mingo/query';

type Operators = NonNullable<Parameters<typeof Context.init>[0]>;

/** mingo's own query and expression operators, which the embedded engine's compiled filters replace. */
const stockContext = Context.init({
  query: queryOperators as unknown as Operators['query'],
  expression: expressionOperators as unknown as Operators['expression'],
});

/** Whether `doc` matches `filter` by mingo's stock `Query` (scripts off): what a compiled filter must answer. */
export const stockTest = (filter: Document, doc: Document): boolean =>
  new Query(filter, { context: stockContext, scriptEnabled: false }).test(doc);
