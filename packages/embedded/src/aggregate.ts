/**
 * Aggregation pipelines of the embedded engine: the entry of `aggregate/`, where the pipeline
 * runner (`run-pipeline.ts`) and its stages live.
 */
export type { AggregateOptions, PipelineSource } from './aggregate/pipeline-run';
export { runPipeline } from './aggregate/run-pipeline';
