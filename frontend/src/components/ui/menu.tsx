import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { EllipsisHorizontalIcon } from '@heroicons/react/20/solid';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router';
import { cn } from '@/lib/cn';
import { LandmarkPortal, useNearestLandmark } from './landmark-portal';

export type MenuAction = {
  label: string;
  icon?: ComponentType<SVGProps<SVGSVGElement>>;
  /** Either a route to go to or a handler to run. */
  to?: string;
  onSelect?: () => void;
  danger?: boolean;
};

/** The active item (arrow keys) is outlined: the menu keeps the focus, the item shows it. */
const itemClasses =
  'flex w-full items-center gap-2 px-3 py-2 text-left text-sm data-[focus]:bg-slate-100 ' +
  'data-[focus]:outline-2 data-[focus]:-outline-offset-2 data-[focus]:outline-blue-600';

/** A "more actions" dropdown (row menus). */
export function ActionMenu({ label = 'Open menu', actions }: { label?: string; actions: MenuAction[] }) {
  const [landmark, landmarkRef] = useNearestLandmark();
  return (
    <Menu>
      <MenuButton
        ref={landmarkRef}
        aria-label={label}
        className="inline-flex size-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-700 data-[focus]:outline-2 data-[focus]:outline-blue-600"
      >
        <EllipsisHorizontalIcon aria-hidden className="size-5" />
      </MenuButton>
      <LandmarkPortal landmark={landmark}>
        <MenuItems
          anchor="bottom end"
          transition
          className="z-50 mt-1 w-44 origin-top-right rounded-lg border border-slate-200 bg-white py-1 shadow-lg focus:outline-none data-[closed]:scale-95 data-[closed]:opacity-0 transition duration-100"
        >
          {actions.map(({ label: itemLabel, icon: Icon, to, onSelect, danger }) => (
            <MenuItem key={itemLabel}>
              {to ? (
                <Link to={to} className={cn(itemClasses, danger ? 'text-red-600' : 'text-slate-700')}>
                  {Icon ? <Icon aria-hidden className="size-4" /> : null}
                  {itemLabel}
                </Link>
              ) : (
                <button type="button" onClick={onSelect} className={cn(itemClasses, danger ? 'text-red-600' : 'text-slate-700')}>
                  {Icon ? <Icon aria-hidden className="size-4" /> : null}
                  {itemLabel}
                </button>
              )}
            </MenuItem>
          ))}
        </MenuItems>
      </LandmarkPortal>
    </Menu>
  );
}
