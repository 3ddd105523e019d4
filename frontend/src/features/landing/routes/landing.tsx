import { LandingFooter } from '@/components/layouts/landing-footer';
import { DocumentTypes } from '../components/document-types';
import { Features } from '../components/features';
import { Hero } from '../components/hero';
import { LandingHeader } from '../components/landing-header';
import { Pricing } from '../components/pricing';

export function LandingRoute() {
  return (
    <div className="min-h-dvh bg-slate-50">
      <LandingHeader />
      <main>
        <Hero />
        <DocumentTypes />
        <Features />
        <Pricing />
      </main>
      <LandingFooter />
    </div>
  );
}

export default LandingRoute;
