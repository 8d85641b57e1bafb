import GlobalStyles from '@mui/material/GlobalStyles';

/**
 * The printed case file for the investigation record: the site chrome, buttons and forms are dropped,
 * sections run one under another in black on white, and no heading is left alone at the foot of a page.
 */
export function PrintStyles() {
  return (
    <GlobalStyles
      styles={{
        '@media print': {
          '@page': { margin: '15mm' },
          'header, footer, nav, .no-print, .MuiSnackbar-root, a[href="#main"]': {
            display: 'none !important',
          },
          body: { background: '#fff !important', color: '#000 !important' },
          '.MuiContainer-root': { maxWidth: 'none !important', padding: '0 !important' },
          '.case-grid': { display: 'block !important' },
          '.case-section': {
            boxShadow: 'none !important',
            border: '1px solid #999 !important',
            marginBottom: '8mm',
          },
          '.case-section h2, .case-section h3': { breakAfter: 'avoid' },
          '.MuiChip-root': { border: '1px solid #666 !important', color: '#000 !important' },
        },
      }}
    />
  );
}
