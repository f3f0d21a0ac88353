import { conformanceSuite } from '../src/conformanceSuite';
import { typescriptRunner } from '../src/typescriptRunner';

conformanceSuite(typescriptRunner);
