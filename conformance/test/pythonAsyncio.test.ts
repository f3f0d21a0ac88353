import { conformanceSuite } from '../src/conformanceSuite';
import { pythonRunner } from '../src/pythonRunner';

conformanceSuite(() => pythonRunner(true));
