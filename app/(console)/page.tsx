import { redirect } from 'next/navigation';
import { currentUser } from './_lib/session';

// The front door: the dashboard for a signed-in user, the sign-in page for everyone else.
export default async function Home() {
  redirect((await currentUser()) ? '/console' : '/signin');
}
