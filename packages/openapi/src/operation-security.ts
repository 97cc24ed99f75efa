/**
 * What an access rule means in the OpenAPI description: who may call an operation, as `security`
 * requirements and the error statuses the rule can answer.
 */
import type { DescribedRule } from '@store/core';
import type { JsonObject } from './json-object';
import type { ProblemStatus } from './problem-responses';

/** The store's own security scheme: the session token a sign-in plugin hands out. */
export const SESSION_TOKEN = 'sessionToken';

export const SESSION_TOKEN_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description: 'A session token a sign-in plugin handed out (`Authorization: Bearer <token>`).',
};

/** One rule's part of an operation: `security`, the sentence that says who, the refusals. */
interface RuleDescription {
  /** Absent: no session needed. */
  readonly security?: JsonObject[];
  readonly who: string;
  readonly refusals: readonly ProblemStatus[];
}

/**
 * The description of `rule`; `schemes` are the names of every session scheme (the store's and the
 * plugins'), any one of which carries a session. `undefined` for `none`: nobody may call it.
 */
export function describeRule(rule: DescribedRule, schemes: readonly string[]): RuleDescription | undefined {
  const withSession = schemes.map((name) => ({ [name]: [] }));
  switch (rule.kind) {
    case 'public':
      return { who: 'Anyone may call it (access rule `public`).', refusals: [] };
    case 'authenticated':
      return {
        security: withSession,
        who: 'Needs a session (access rule `authenticated`).',
        refusals: [401, 403],
      };
    case 'owner':
      return {
        security: withSession,
        who: `Needs a session, and reaches only the documents whose \`${rule.field}\` is the user's \`_id\` (access rule \`owner\`).`,
        refusals: [401, 403],
      };
    case 'function':
      return {
        security: [{}, ...withSession],
        who: "The application's access function decides, with or without a session.",
        refusals: [401, 403],
      };
    case 'none':
      return undefined;
  }
}
