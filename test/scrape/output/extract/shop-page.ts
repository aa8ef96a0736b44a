/** A shop's page for the extraction tests: categories of products, a table, odd whitespace. */
export const SHOP_PAGE = `<!doctype html><html lang="en"><head><title>Shop</title>
<script>var NOT_TEXT = 1;</script><style>.x{}</style></head><body>
<h1>
  The   Shop
</h1>
<section class="category" data-slug="lamps"><h2>Lamps</h2>
  <ul>
    <li class="product" data-sku="L1"><a href="/lamp/1">Desk lamp</a> <span class="price">€ 20</span></li>
    <li class="product" data-sku="L2"><a href="/lamp/2">Floor lamp</a> <span class="price">€ 45</span>
      <ul class="tags"><li>tall</li><li>warm</li></ul></li>
  </ul>
</section>
<section class="category" data-slug="chairs"><h2>Chairs</h2>
  <ul>
    <li class="product" data-sku="C1"><a href="/chair/1">Stool</a> <span class="price">€ 15</span></li>
  </ul>
</section>
<section class="category" data-slug="empty"><h2>Soon</h2><ul></ul></section>
<table id="hours">
  <thead><tr><th>Day</th><th>Opens</th><th></th></tr></thead>
  <tbody><tr><td>Monday</td><td>9:00</td><td>x</td></tr><tr><td>Sunday</td><td>closed</td></tr></tbody>
</table>
<p id="note">Prices <b>include</b> VAT.<script>document.write('NOT_TEXT')</script></p>
</body></html>`;
