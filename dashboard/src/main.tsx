import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import { Alert, Anchor, createTheme, MantineProvider, Modal, type CSSVariablesResolver } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadConfig } from './config';
import { SessionProvider } from './session';

// System fonts only: nothing is fetched from a third party at run time.
// Shades chosen for WCAG AA contrast on white (the default shade 6 and gray 6 "dimmed" are below 4.5:1).
// Links are underlined: inside a sentence colour alone does not tell them apart (axe link-in-text-block).
const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  components: {
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Close buttons say what they do.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Alert: Alert.extend({ defaultProps: { closeButtonLabel: 'Dismiss' } }),
  },
});
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    // Text of light variants (alerts' titles, light buttons) dark enough for 4.5:1 on their tint.
    ...Object.fromEntries(['red', 'blue', 'indigo', 'grape', 'gray'].map((c) => [`--mantine-color-${c}-light-color`, `var(--mantine-color-${c}-9)`])),
    '--mantine-color-green-light-color': '#1f6f32',
    '--mantine-color-yellow-light-color': '#7a4700',
    '--mantine-color-orange-light-color': '#a33a00',
  },
  dark: {},
});

const config = await loadConfig();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={contrast}>
      <SessionProvider config={config}>
        <App />
      </SessionProvider>
    </MantineProvider>
  </StrictMode>,
);
