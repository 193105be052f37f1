export type {
  LavsErrorCode,
  LavsErrorObject,
  LavsErrorOptions,
  LavsErrorRow,
} from './lavs-error.js';
export { LAVS_ERRORS, LavsError, toLavsErrorObject } from './lavs-error.js';
