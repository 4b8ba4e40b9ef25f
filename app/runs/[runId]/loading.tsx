import { RunSkeleton } from '@/components/skeletons';

export default function Loading() {
  return <RunSkeleton />;
}
