import { startApiProcess } from '@tablelock/test-support';
import { describeTwoApiProcesses } from './support/twoApiProcesses';

describeTwoApiProcesses('two API processes on one database', (database, [portA, portB], started) =>
  Promise.all([
    startApiProcess('A', database.url, portA, started),
    startApiProcess('B', database.url, portB, started),
  ]),
);
