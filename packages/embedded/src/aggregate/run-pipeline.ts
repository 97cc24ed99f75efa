/**
 * Aggregation pipelines of the embedded engine, with MongoDB's answers or a refusal that names
 * what is not supported (code 238, NotImplemented), never another answer.
 *
 * The stages run one after the other over arrays of documents, in slices of one `Work` (its
 * `maxTimeMS` and `maxExamined` cover the whole pipeline, `$lookup`'s reads included). A leading
 * `$match` is the collection's own scan (its indexes, its RE2 regexes, its budgets), and so is
 * each read of a `$lookup`'s foreign collection. Every `$match` is compiled by the engine's filter
 * compiler; `$sort` is the engine's sort (MongoDB's order of BSON values); `$group`, `$unwind`,
 * `$addFields` / `$set`, `$lookup`, `$facet`, `$count`, `$skip`, `$limit` are this folder's.
 * mingo runs `$project`, `$unset` and `$replaceRoot` / `$replaceWith` (its answers set right where
 * they differ from MongoDB's: field order, `_id: 1` beside exclusions) and computes every
 * expression, in a context of its operators built here: the engine's RE2 regex expressions in
 * place of mingo's backtracking ones, and the engine's own `$group` accumulators where mingo's
 * answer otherwise (BSON order for `$min` / `$max`, missing values not pushed). Documents flowing
 * between stages are never changed in place (stored documents pass through them), and the answer
 * is made of fresh copies. Under a collation (the `collation` option) strings compare by it in
 * every `$match`, `$sort`, `$group` key, `$lookup` read and comparing expression, or the stage
 * is refused by name (collated-expressions.ts); none compares them binary.
 */

import type { Document } from '@store/common';
import { isPlainObject, setOwn } from '@store/common';
import { parseCollation } from '../collation';
import { EmbeddedDbError } from '../errors';
import { pipelineAt } from '../pipeline-now';
import { cloneValue } from '../values';
import type { Work } from '../work';
import { letVariables } from '../write-options';
import { accumulatorsOf, countedGroup, countingGroup } from './group-stage';
import { bindFilter } from './let-variables';
import { checkMatch } from './match-stage';
import { computeOptions, contextOf } from './mingo-context';
import { type AggregateOptions, notImplemented, type PipelineInput, type Run } from './pipeline-run';
import { checkStageName, IMPLEMENTED_STAGES, stagesOf } from './pipeline-stages';
import { runStages } from './run-stages';
import { countArgument, keptByPage } from './sort-and-page';

/**
 * Runs `pipeline` over `input` (see the module comment) within `work`; the answer is fresh
 * copies. Each stage is checked as it is reached, but the stage names of the whole pipeline
 * first: one MongoDB does not know (40324), or that the engine does not run (238).
 */
export async function runPipeline(
  pipeline: unknown,
  options: AggregateOptions,
  input: PipelineInput,
  work: Work,
): Promise<Document[]> {
  // Every document and stage of the operation sees the same `$$NOW`.
  const stages = stagesOf(pipelineAt(pipeline, new Date()));
  for (const [name] of stages) checkStageName(name);
  for (const [name] of stages) {
    if (!IMPLEMENTED_STAGES.has(name)) throw notImplemented(`the ${name} stage`);
  }
  // The collation, if any, reaches every `$match` compiled (the source's scans included),
  // `$sort`, `$group` keys, `$lookup`'s reads and the expressions comparing strings.
  const collation = parseCollation(options.collation);
  const context = contextOf(collation);
  const misplaced = stages.findIndex(([name], i) => name === '$documents' && (i > 0 || input.source));
  if (misplaced !== -1) {
    throw new EmbeddedDbError(
      'BadValue',
      '$documents is only valid as the first stage of a database-level pipeline',
    );
  }
  const variables = letVariables(options.let) ?? {};
  const run: Run = {
    input,
    work,
    variables,
    options: computeOptions(variables, context),
    collation,
    context,
  };
  let docs: Document[] = [];
  let rest = stages;
  if (input.source) {
    const [first] = stages;
    let filter: Document = {};
    if (first?.[0] === '$match') {
      filter = bindFilter(checkMatch(first[1]), variables);
      rest = stages.slice(1);
    }
    // The pipeline of a count (`$skip` and `$limit` stages, then a counting `$group`) counts
    // the matches as countDocuments does, without reading them.
    let paging = 0;
    while (rest[paging]?.[0] === '$skip' || rest[paging]?.[0] === '$limit') paging += 1;
    const [groupName, groupSpec] = rest[paging] ?? [];
    const counting = groupName === '$group' ? countingGroup(groupSpec) : undefined;
    if (counting) {
      accumulatorsOf(groupSpec as Document);
      let count = await input.source.count(filter, work, keptByPage(rest, 0), collation);
      for (const [name, spec] of rest.slice(0, paging)) {
        const value = countArgument(name, spec);
        count = name === '$skip' ? Math.max(0, count - value) : Math.min(count, value);
      }
      docs = countedGroup(counting, count);
      rest = rest.slice(paging + 1);
    } else docs = await input.source.scan(filter, work, keptByPage(rest, 0), collation);
  } else if (stages[0]?.[0] !== '$documents') {
    throw new EmbeddedDbError(
      'InvalidNamespace',
      `{aggregate: 1} is not valid for '${stages[0]?.[0] ?? 'an empty pipeline'}'; a collection is required.`,
    );
  }
  const out = await runStages(docs, rest, run);
  const copies: Document[] = [];
  for (const doc of out) {
    copies.push(answerCopy(doc) as Document);
    if (work.tick()) await work.pause();
  }
  return copies;
}

/** A fresh copy of an answer's value, as MongoDB returns it: a missing field (undefined) left out, null in an array. */
function answerCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : answerCopy(item)));
  if (!isPlainObject(value)) return cloneValue(value);
  const out: Document = {};
  for (const [key, inner] of Object.entries(value))
    if (inner !== undefined) setOwn(out, key, answerCopy(inner));
  return out;
}
