/** The GeoJSON geometry types (RFC 7946) the embedded engine reads; structurally those of `geojson`. */

/** `[longitude, latitude]` (an optional altitude is allowed and ignored). */
export type Position = number[];

/** A GeoJSON geometry. */
export type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'MultiPoint'; coordinates: Position[] }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'MultiLineString'; coordinates: Position[][] }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }
  | { type: 'GeometryCollection'; geometries: Geometry[] };

/** A GeoJSON Point. */
export type Point = Extract<Geometry, { type: 'Point' }>;
