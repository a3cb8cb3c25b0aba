/**
 * The shared UI kit. Import from 'src/components' (this file); each component brings its own
 * CSS, and src/styles/tokens.css + base.css must be loaded once by the app entry.
 */
export { Button, IconButton, type ButtonProps, type ButtonVariant, type ButtonSize, type IconButtonProps } from './Button';
export { CheckboxField, type CheckboxFieldProps } from './CheckboxField';
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
export { DateField, type DateFieldProps } from './DateField';
export { DateTime, type DateTimeProps } from './DateTime';
export { BottomSheet, Drawer, type DrawerProps } from './Drawer';
export { EmptyState, type EmptyStateProps } from './EmptyState';
export { FileField, isAccepted, type FileFieldProps } from './FileField';
export * from './Icon';
export { InfoChip, type InfoChipProps, type InfoKind } from './InfoChip';
export { Logo, type LogoProps } from './Logo';
export { Dropdown, Menu, type DropdownProps, type MenuItem, type MenuProps } from './Menu';
export { Modal, type ModalProps, type ModalSize } from './Modal';
export { Money, type MoneyProps } from './Money';
export { Pagination, paginationItems, type PageItem, type PaginationProps } from './Pagination';
export { PasswordField, type PasswordFieldProps } from './PasswordField';
export { PriceText, type PriceTextProps } from './PriceText';
export { SelectField, type SelectFieldProps, type SelectOption } from './SelectField';
export { PageSpinner, Spinner, type SpinnerProps } from './Spinner';
export { Skeleton, SkeletonList, SkeletonText, type SkeletonProps } from './Skeleton';
export { Tabs, type TabItem, type TabsProps } from './Tabs';
export { TextField, type TextFieldProps } from './TextField';
export { ToastViewport, type ToastItem, type ToastType, type ToastViewportProps } from './Toasts';
export { cx } from './cx';
export { PHONE_QUERY, useMediaQuery, useReducedMotion, useScrollHints } from './hooks';
export type { MaybeSignal } from './field-parts';
export { SegmentedControl, type SegmentOption, type SegmentedControlProps } from './SegmentedControl';
export { PublicFooter, PublicTopBar } from './PublicChrome';
