import { describe, expect, it } from 'vitest';
import { rupeesMoney, istDateTime, money } from '../../functions/console/format.ts';
import { html } from '../../functions/console/html.ts';

describe('console markup', () => {
  it('escapes every interpolated value, so a partner-controlled string cannot become markup', () => {
    const hostile = `"><script>alert('x')</script>&`;
    expect(html`<td title="${hostile}">${hostile}</td>`.markup).toBe(
      '<td title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</td>',
    );
  });

  it('splices markup made by html unescaped, lists joined, and nothing for null, undefined or false', () => {
    expect(html`<ul>${['a<', 'b'].map((x) => html`<li>${x}</li>`)}</ul>${null}${undefined}${false}${0}`.markup).toBe('<ul><li>a&lt;</li><li>b</li></ul>0');
  });

  it('prints money in Indian grouping with the rupee sign, exactly from rupee figures, and instants in IST', () => {
    expect(money(12_345_678)).toBe('₹1,23,456.78');
    expect(rupeesMoney(123456.78)).toBe('₹1,23,456.78');
    expect(rupeesMoney(-0.1)).toBe('-₹0.10');
    expect(istDateTime('2026-11-02T18:45:00.000Z')).toBe('03 Nov 2026, 00:15 IST');
  });
});
