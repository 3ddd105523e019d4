import { MagnifyingGlassIcon } from '@heroicons/react/20/solid';
import { cn } from '@/lib/cn';
import { inputClasses } from './field';

type SearchInputProps = {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  label?: string;
  className?: string;
  list?: string;
};

export function SearchInput({ value, onChange, placeholder, label = placeholder, className, list }: SearchInputProps) {
  return (
    <div className={cn('relative', className)}>
      <MagnifyingGlassIcon
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
      />
      <input
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        aria-label={label}
        list={list}
        className={cn(inputClasses, 'pl-9')}
      />
    </div>
  );
}
