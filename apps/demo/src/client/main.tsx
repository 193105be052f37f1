/**
 * Browser entry of the demo client.
 */
import '@a2ui-ts/react-renderer/styles.css';
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
