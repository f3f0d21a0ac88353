export { inSpan } from './inSpan';
