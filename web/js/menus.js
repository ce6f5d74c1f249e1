// The toolbar's drop-down menus (<details class="menu">: Export, Imported) close as a menu bar's do: on Esc, on a
// press anywhere outside them, and when another one opens. An open menu hangs over the panels: left open, it takes
// the click meant for what lies under it (Run, say) and acts on one of its own items instead.
const menus = () => [...document.querySelectorAll('details.menu')];

function closeAll(except) {
  for (const menu of menus()) if (menu !== except && menu.open) menu.open = false;
}

export function startMenus() {
  // Esc: index.html's first key listener asks here before the app or the toolbar's controls see the key.
  window.muplayMenuKey = (e) => {
    if (e.type !== 'keydown' || e.key !== 'Escape') return false;
    const open = menus().find((menu) => menu.open);
    if (!open) return false;
    const hadFocus = open.contains(document.activeElement);
    closeAll();
    if (hadFocus) open.querySelector('summary').focus();  // the keyboard stays where the menu was
    return true;
  };
  window.addEventListener('pointerdown', (e) => closeAll(menus().find((menu) => menu.contains(e.target))), true);
  for (const menu of menus()) menu.addEventListener('toggle', () => { if (menu.open) closeAll(menu); });
}
