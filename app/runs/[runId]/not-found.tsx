import { RunProblem } from './run-problem';

export default function RunNotFound() {
  return <RunProblem />;
}
