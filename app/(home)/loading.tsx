import { HomeSkeleton } from '@/components/skeletons';

export default function Loading() {
  return <HomeSkeleton />;
}
