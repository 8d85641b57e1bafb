import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const SITE = { operator_name: '안심신고 운영팀', operator_contact: 'privacy@ansim.example' };

/** A fresh copy of the module: what it knows is read once, when it loads, from the page it loads in. */
async function loadModule() {
  vi.resetModules();
  return import('./site-info');
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('site info', () => {
  it('takes the operator from a prerendered page and asks the server nothing', async () => {
    document.body.innerHTML = `<script type="application/json" id="site-info">${JSON.stringify(SITE)}</script>`;
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { useSiteInfo, loadSiteInfo } = await loadModule();
    const { result } = renderHook(() => useSiteInfo());
    // The first render already names the operator, as the server's markup did.
    expect(result.current).toEqual(SITE);
    await expect(loadSiteInfo()).resolves.toEqual(SITE);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('asks GET /api/v1/site/ once on a page the server did not draw, and ignores a malformed block', async () => {
    document.body.innerHTML = '<script type="application/json" id="site-info">{"operator_name": 1}</script>';
    const fetch = vi.fn(async () => new Response(JSON.stringify(SITE), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const { useSiteInfo } = await loadModule();
    const { result } = renderHook(() => useSiteInfo());
    expect(result.current).toBeNull();
    await waitFor(() => expect(result.current).toEqual(SITE));
    renderHook(() => useSiteInfo());
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith(expect.stringContaining('/api/v1/site/'), expect.anything());
  });
});
