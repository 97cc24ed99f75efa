import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { childrenFilter, parentsFilter } from '../src/index';

const HEX = '64b7f0c2a1b2c3d4e5f60718';

describe('childrenFilter', () => {
  it('selects children by <singular>_id or <singular>_ids over every id variant', () => {
    expect(childrenFilter('companies', [1, '2'])).toEqual({
      $or: [{ company_id: { $in: [1, '1', '2', 2] } }, { company_ids: { $in: [1, '1', '2', 2] } }],
    });
  });

  it('covers the ObjectId of a hex path id', () => {
    const filter = childrenFilter('people', [HEX]);
    const variants = [HEX, new ObjectId(HEX)];
    expect(filter).toEqual({ $or: [{ person_id: { $in: variants } }, { person_ids: { $in: variants } }] });
  });

  it('honours singular overrides', () => {
    expect(childrenFilter('staff', [1], { singular: { staff: 'staffer' } })).toEqual({
      $or: [{ staffer_id: { $in: [1, '1'] } }, { staffer_ids: { $in: [1, '1'] } }],
    });
  });

  it('matches nothing for no parents', () => {
    expect(childrenFilter('companies', [])).toEqual({
      $or: [{ company_id: { $in: [] } }, { company_ids: { $in: [] } }],
    });
  });
});

describe('parentsFilter', () => {
  it('selects parents by any variant of the references', () => {
    expect(parentsFilter([3, '3', null])).toEqual({ _id: { $in: [3, '3'] } });
  });
});
