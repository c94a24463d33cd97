/**
 * Contact facts: what a segment rule reads of a contact, in the forms it travels in. `rows` (one
 * contact as a row, JSON-lines snapshot chunks, deltas and their merge), `table` (a snapshot in
 * columns, what a count walks), `chunks` (the stored columnar chunk format), `view` (a snapshot
 * with the deltas on top, without copying it). Plain functions, no I/O.
 */
export * from './rows';
export * from './table';
export * from './chunks';
export * from './view';
