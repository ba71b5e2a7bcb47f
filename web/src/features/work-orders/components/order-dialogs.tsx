import { workOrderRoutes as r, type WorkOrderAction, type WorkOrderRow } from '@sitewatch/contract/work-orders';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Form, Image, Input, Modal, Radio, Space, Tag, Timeline, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../../api/client.ts';
import { FormModal } from '../../../components/form-modal.tsx';
import { LevelTag } from '../../../components/levels.tsx';
import { formatTime } from '../../../components/time.ts';
import { historyKey, priorityKey, stateKey, uploadAttachment, workOrderKeys } from '../api.ts';
import { DeadlineItem, PersonItem, PriorityItem, useSucceeded } from './order-fields.tsx';

export const stateColors: Record<number, string> = { 1: 'gold', 2: 'blue', 3: 'purple', 4: 'green', 5: 'red' };
export const StateTag = ({ state }: { state: number }) => {
  const { t } = useTranslation();
  return <Tag color={stateColors[state]}>{t(stateKey(state))}</Tag>;
};

/** What a new order made from an alarm ("转工单") starts with, and the alarm it is linked to. */
export interface OrderPrefill {
  alarm_id: number;
  alarm_level: number;
  device_group_id: number;
  description: string;
  priority: number;
}

/**
 * New order (self-dispatch when the handler is oneself), one made from an alarm (`from`), or edit of
 * one, by its creator.
 */
export const OrderForm = ({
  order,
  from,
  onClose,
}: {
  order: WorkOrderRow | null | undefined;
  from?: OrderPrefill | undefined;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const saved = useSucceeded('workOrderUi.saved', workOrderKeys.all, onClose);
  const save = useMutation({
    mutationFn: async (v: Record<string, unknown>) => {
      const body = {
        description: v.description as string,
        priority: v.priority as number,
        handler_id: v.handler_id as number,
        reviewer_id: v.reviewer_id as number,
        deadline_hours: v.deadline_hours as number,
        device_group_id: order ? order.device_group_id : (from?.device_group_id ?? null),
      };
      return order
        ? api.call(r.act, { params: { id: order.id }, body: { action: 'edit', ...body } })
        : api.call(r.create, { body: { ...body, alarm_id: from?.alarm_id ?? null } });
    },
    onSuccess: saved,
  });
  return (
    <FormModal
      open={order !== undefined}
      title={t(order ? 'workOrderUi.edit' : 'workOrderUi.create')}
      onCancel={onClose}
      form={form}
      confirmLoading={save.isPending}
      initialValues={
        order ??
        (from
          ? { description: from.description, priority: from.priority, deadline_hours: 24 }
          : { priority: 2, deadline_hours: 24 })
      }
      onFinish={(v) => save.mutate(v)}
    >
      {!order && from && (
        <Form.Item label={t('workOrderUi.alarm')}>
          <Space data-testid="work-order-form-alarm">
            <span>#{from.alarm_id}</span>
            <LevelTag level={from.alarm_level} />
          </Space>
        </Form.Item>
      )}
      <Form.Item name="description" label={t('workOrderUi.description')} rules={[{ required: true, whitespace: true }]}>
        <Input.TextArea rows={3} maxLength={2000} />
      </Form.Item>
      <PriorityItem />
      <PersonItem name="handler_id" label={t('workOrderUi.handler')} />
      <PersonItem name="reviewer_id" label={t('workOrderUi.reviewer')} />
      <DeadlineItem />
    </FormModal>
  );
};

type Step = Exclude<WorkOrderAction, 'edit' | 'delete' | 'receive'>;

/** An action that needs input: transfer (new handler, comment), refuse, complete (method, photos), pass. */
const ActionDialog = ({ order, step, onClose }: { order: WorkOrderRow; step: Step; onClose: () => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const done = useSucceeded('workOrderUi.done', workOrderKeys.all, onClose);
  const run = useMutation({
    mutationFn: async (v: Record<string, unknown>) => {
      const body =
        step === 'transfer'
          ? { action: step, handler_id: v.handler_id as number, comment: v.comment as string }
          : step === 'refuse'
            ? { action: step, comment: v.comment as string }
            : step === 'complete'
              ? {
                  action: step,
                  processing_method: v.processing_method as string,
                  resolution: v.resolution as 'fixed' | 'other',
                }
              : { action: step, comment: (v.comment as string | undefined) ?? '' };
      return api.call(r.act, { params: { id: order.id }, body });
    },
    onSuccess: done,
  });
  return (
    <Modal open title={t(`workOrderUi.actions.${step}`)} onCancel={onClose} onOk={() => form.submit()} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ resolution: 'fixed' }} onFinish={(v) => run.mutate(v)}>
        {step === 'transfer' && (
          <PersonItem name="handler_id" label={t('workOrderUi.newHandler')} except={order.handler_id} />
        )}
        {step === 'complete' && (
          <>
            <Form.Item
              name="processing_method"
              label={t('workOrderUi.processingMethod')}
              rules={[{ required: true, whitespace: true }]}
            >
              <Input.TextArea rows={3} maxLength={2000} />
            </Form.Item>
            <Form.Item name="resolution" label={t('workOrderUi.resolution')}>
              <Radio.Group
                options={[
                  { value: 'fixed', label: t('workOrderUi.fixed') },
                  { value: 'other', label: t('workOrderUi.other') },
                ]}
              />
            </Form.Item>
          </>
        )}
        {step !== 'complete' && (
          <Form.Item
            name="comment"
            label={t('workOrderUi.comment')}
            rules={step === 'pass' ? [] : [{ required: true, whitespace: true }]}
          >
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
};

/** The detail of one order: fields, attachments, history, and the buttons the caller may use now. */
export const OrderDetail = ({ id, onClose }: { id: number | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [step, setStep] = useState<Step | null>(null);
  const [editing, setEditing] = useState<WorkOrderRow | null | undefined>(undefined);
  const info = useQuery({
    queryKey: [...workOrderKeys.all, 'info', id],
    queryFn: () => api.call(r.info, { query: { id: id! } }),
    enabled: id !== null,
  });
  const o = info.data;
  const done = () => {
    void message.success(t('workOrderUi.done'));
    void qc.invalidateQueries({ queryKey: workOrderKeys.all });
  };
  const receive = useMutation({
    mutationFn: () => api.call(r.act, { params: { id: id! }, body: { action: 'receive' } }),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: () => api.call(r.remove, { params: { id: id! } }),
    onSuccess: () => {
      done();
      onClose();
    },
  });
  const upload = useMutation({
    mutationFn: (file: File) => uploadAttachment(id!, file),
    onSuccess: () => {
      void message.success(t('workOrderUi.uploaded'));
      void qc.invalidateQueries({ queryKey: workOrderKeys.all });
    },
  });
  const can = (a: WorkOrderAction) => o?.actions.includes(a) ?? false;
  return (
    <Modal
      open={id !== null}
      width={760}
      title={o ? `${t('workOrderUi.order')} ${o.number}` : ''}
      onCancel={onClose}
      footer={
        o && (
          <Space wrap data-testid="work-order-actions">
            {can('receive') && (
              <Button type="primary" loading={receive.isPending} onClick={() => receive.mutate()}>
                {t('workOrderUi.actions.receive')}
              </Button>
            )}
            {(['complete', 'pass', 'refuse', 'transfer'] as const).filter(can).map((a) => (
              <Button
                key={a}
                type={a === 'complete' || a === 'pass' ? 'primary' : 'default'}
                onClick={() => setStep(a)}
              >
                {t(`workOrderUi.actions.${a}`)}
              </Button>
            ))}
            {can('edit') && <Button onClick={() => setEditing(o)}>{t('workOrderUi.actions.edit')}</Button>}
            {can('delete') && (
              <Button danger loading={remove.isPending} onClick={() => remove.mutate()}>
                {t('workOrderUi.actions.delete')}
              </Button>
            )}
          </Space>
        )
      }
    >
      {o && (
        <>
          <Descriptions size="small" column={2} bordered data-testid="work-order-detail">
            <Descriptions.Item label={t('workOrderUi.state')}>
              <StateTag state={o.state} />
            </Descriptions.Item>
            <Descriptions.Item label={t('workOrderUi.priority')}>{t(priorityKey(o.priority))}</Descriptions.Item>
            <Descriptions.Item label={t('workOrderUi.description')} span={2}>
              {o.description}
            </Descriptions.Item>
            <Descriptions.Item label={t('workOrderUi.creator')}>
              {o.creator || t('workOrderUi.system')}
            </Descriptions.Item>
            <Descriptions.Item label={t('workOrderUi.handler')}>{o.handler}</Descriptions.Item>
            <Descriptions.Item label={t('workOrderUi.reviewer')}>{o.reviewer}</Descriptions.Item>
            <Descriptions.Item label={t('workOrderUi.deadline')}>{formatTime(o.deadline)}</Descriptions.Item>
            <Descriptions.Item label={t('workOrderUi.createTime')}>{formatTime(o.creation_time)}</Descriptions.Item>
            <Descriptions.Item label={t('workOrderUi.dispatch')}>
              {t(`workOrderUi.dispatches.${o.dispatch}`)}
            </Descriptions.Item>
            {o.alarm_id !== null && (
              <Descriptions.Item label={t('workOrderUi.alarm')} span={2}>
                <Link to={`/alarm?status_id=${o.alarm_id}`} data-testid="work-order-alarm">
                  #{o.alarm_id}
                </Link>
                {o.alarm_level !== null && (
                  <>
                    {' '}
                    <LevelTag level={o.alarm_level} />
                  </>
                )}
              </Descriptions.Item>
            )}
            {o.on_duty !== '' && (
              <Descriptions.Item label={t('workOrderUi.onDuty')} span={2}>
                {o.on_duty}
              </Descriptions.Item>
            )}
            {o.processing_method !== '' && (
              <Descriptions.Item label={t('workOrderUi.processingMethod')} span={2}>
                {o.processing_method}
              </Descriptions.Item>
            )}
            {o.comment !== '' && (
              <Descriptions.Item label={t('workOrderUi.comment')} span={2}>
                {o.comment}
              </Descriptions.Item>
            )}
          </Descriptions>
          <Space style={{ margin: '12px 0' }} wrap>
            {o.files.map((f) => (
              <Image key={f.id} src={f.url} width={72} height={72} style={{ objectFit: 'cover' }} alt={f.name} />
            ))}
            {o.state === 2 && can('complete') && (
              <Upload
                accept=".jpg,.jpeg,.png"
                showUploadList={false}
                beforeUpload={(file) => {
                  upload.mutate(file);
                  return false;
                }}
              >
                <Button loading={upload.isPending} data-testid="work-order-upload">
                  {t('workOrderUi.attach')}
                </Button>
              </Upload>
            )}
          </Space>
          <Timeline
            items={o.history.map((h) => ({
              children: `${formatTime(h.time)} ${h.user_id === 0 ? t('workOrderUi.system') : h.user_name} · ${t(historyKey(h.action))}${h.comment ? `: ${h.comment}` : ''}`,
            }))}
          />
        </>
      )}
      {o && step && <ActionDialog order={o} step={step} onClose={() => setStep(null)} />}
      <OrderForm order={editing} onClose={() => setEditing(undefined)} />
    </Modal>
  );
};
