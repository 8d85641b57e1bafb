import Skeleton from '@mui/material/Skeleton';
import { toString as qrToSvg } from 'qrcode';
import { useEffect, useState } from 'react';

/**
 * The intake link as a QR code, drawn as SVG so it prints sharp at any size. Loaded lazily: the encoder is
 * only needed on this tab.
 */
export default function IntakeQr({ url, label, size = 200 }: { url: string; label: string; size?: number }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    // Level M survives a scuffed or partly covered print on a notice board.
    void qrToSvg(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }).then((markup) => {
      if (live) setSvg(markup);
    });
    return () => {
      live = false;
    };
  }, [url]);
  if (!svg) return <Skeleton variant="rectangular" width={size} height={size} />;
  return (
    <div
      role="img"
      aria-label={label}
      data-testid="intake-qr"
      style={{ width: size, height: size, background: '#fff' }}
      // The markup is the encoder's own output for our URL, not user HTML.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: generated SVG of a QR code
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
