import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadConfig } from './config';
import { SessionProvider } from './session';

// System fonts only: nothing is fetched from a third party at run time.
const theme = createTheme({ primaryColor: 'indigo', defaultRadius: 'md' });

const config = await loadConfig();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
      <SessionProvider config={config}>
        <App />
      </SessionProvider>
    </MantineProvider>
  </StrictMode>,
);
