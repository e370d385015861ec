export { isScope, SCOPES, type Scope } from '../../contract/vocabulary.ts';
