import 'pretendard/dist/web/variable/pretendardvariable-dynamic-subset.css';
import './styles/shell.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { installAnalytics } from './lib/analytics';
import { initI18n } from './lib/i18n';
import { refreshLoginStatus } from './lib/login-state';
import { runEffectsAsTasks } from './lib/preact-effects';
import { installSessionKeepAlive } from './lib/session-sync';

// Spec §1 start-up order: analytics plugin, mount, then refresh the login status.
void installAnalytics().catch((error) => console.warn('Analytics could not start', error));

runEffectsAsTasks();
const router = createAppRouter();
const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

// Korean initialises synchronously; waiting only matters when another stored language must be fetched.
void initI18n().then(() => {
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
  void refreshLoginStatus();
  installSessionKeepAlive();
});
