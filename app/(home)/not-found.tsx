import { HomeProblems } from './home-problems';

export default function HomeNotFound() {
  return <HomeProblems />;
}
