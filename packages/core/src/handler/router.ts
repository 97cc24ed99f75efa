import { findResource } from '../model/find-resource';
import type { ResourceTable, RouteKind, RouteMatch } from '../model/resource';

const KINDS = ['collection', 'document', 'children'] as const satisfies readonly RouteKind[];

/**
 * The path's segments, percent-decoded, without a leading or trailing `/`; `undefined` for an
 * empty path, an empty segment or malformed percent-encoding. Only segments holding a `%` are
 * decoded (the others decode to themselves).
 */
function decodeSegments(path: string): string[] | undefined {
  const start = path.startsWith('/') ? 1 : 0;
  const end = path.length > start && path.endsWith('/') ? path.length - 1 : path.length;
  if (end <= start) return undefined;
  const segments = path.slice(start, end).split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (segment === '') return undefined;
    if (!segment.includes('%')) continue;
    try {
      segments[i] = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
  }
  return segments;
}

/**
 * The resource route a path names, or `undefined` when it names none: then the request is
 * not the store's, and the adapter passes it on (`next()`), so the host's own routes work.
 * That covers invalid resource names, internal collections, undeclared names under
 * `restrict`, more than three segments and malformed percent-encoding.
 */
export function matchRoute(path: string, table: ResourceTable): RouteMatch | undefined {
  const segments = decodeSegments(path);
  const [name, id, childName] = segments ?? [];
  const kind = segments ? KINDS[segments.length - 1] : undefined;
  const resource = name === undefined ? undefined : findResource(table, name);
  if (!kind || !resource) return undefined;
  if (kind !== 'children') return id === undefined ? { kind, resource } : { kind, resource, id };
  const children = findResource(table, childName as string);
  return children && { kind, resource, id: id as string, children };
}
