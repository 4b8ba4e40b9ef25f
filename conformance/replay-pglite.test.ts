import { describeReplay } from './replay-suite';

describeReplay('pglite');
