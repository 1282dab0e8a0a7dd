// The 404 page in the language of the missing address. A classic script file (not inline: the CSP
// allows scripts from this origin only), loaded in <head> so the page is drawn in the right order at once.
if (location.pathname.startsWith('/en/')) document.documentElement.lang = 'en';
