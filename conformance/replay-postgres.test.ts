import { describeReplay } from './replay-suite';

describeReplay('postgres');
